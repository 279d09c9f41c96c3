"""A websocket probe that proves the channel layer carries messages end to end."""

from __future__ import annotations

from channels.generic.websocket import AsyncJsonWebsocketConsumer


class HealthConsumer(AsyncJsonWebsocketConsumer):
    """Answer ``{"type": "ping"}`` with a pong that went through the channel layer."""

    async def receive_json(self, content: dict, **kwargs) -> None:
        if not isinstance(content, dict) or content.get("type") != "ping":
            await self.send_json({"type": "error", "code": "unknown_frame", "message": "Send {\"type\": \"ping\"}."})
            return
        # A round trip through the layer, not a direct reply: a broken Redis shows up here.
        await self.channel_layer.send(self.channel_name, {"type": "health.pong"})

    async def health_pong(self, event: dict) -> None:
        await self.send_json({"type": "pong", "layer": type(self.channel_layer).__name__})
