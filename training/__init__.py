"""Training and checking the learned part of the camera (issue 26): never installed."""
