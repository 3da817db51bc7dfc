"""Fixtures of the security tests: the shipped Mosquitto configuration, run for real."""

from __future__ import annotations

from tests.security.broker import secure_broker

__all__ = ["secure_broker"]
