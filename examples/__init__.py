"""Small agent loops over memoryhub, one per adapter; each runs offline with a scripted stand-in for the model."""
