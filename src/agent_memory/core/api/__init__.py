"""What callers send: the event and request contracts, read strictly."""
