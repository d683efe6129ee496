"""What Slack sends, one module per kind: each has ``register(app, services)``."""
