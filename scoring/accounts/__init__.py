"""Optional accounts: sign-up and log-in."""
