"""结算: who pays whom, ticked off; the evening's picture, chart and share text."""
