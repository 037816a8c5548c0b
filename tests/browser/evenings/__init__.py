"""Each ruleset's evening on a phone, as steps the one test of tests/browser/test_evenings.py runs."""
