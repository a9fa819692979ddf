"""Forms: what players type, checked and turned into the values the services take."""
