"""Conditional preferences (docs/architecture.md, "Conditional preferences"): a preference that holds under a condition, stored as a variant of
its memory key (layers/long_term/conditions/condition.py), detected in what users say (parser.py), served when
its condition holds for a request (selectors.py), and corrected when requests keep contradicting it
(services.py)."""
