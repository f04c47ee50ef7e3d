"""The web table: a FastAPI app that hosts games over WebSockets and stores every action."""
