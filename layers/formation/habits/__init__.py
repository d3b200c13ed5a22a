"""Habits from repetition: reading requests (requests.py, with the words in lexicon.py) and finding the
patterns they make across days (patterns.py). The job that writes them is layers/formation/services/habits.py."""
