"""Views, one module per screen; each is a small typed function."""
