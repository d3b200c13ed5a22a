"""Everything the project stores about one end user: export it, or erase it for good."""
