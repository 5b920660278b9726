"""The browser arcade: a FastAPI server (HTTP + WebSocket), SQLAlchemy storage and the static web client."""
