"""The arcade's HTTP routes by resource, each an ``APIRouter`` that ``damier.server.app`` assembles."""
