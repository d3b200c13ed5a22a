"""The actor tests act as when the acting party does not matter."""
from memoryhub.core.actors import Actor

TEST_ACTOR = Actor.system("tests")
