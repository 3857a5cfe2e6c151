"""A loopback fake of Discord's REST API and gateway, for wire-level tests of the real bot."""

from .server import Attachment, FakeDiscord, Interaction, Message, User

__all__ = ["Attachment", "FakeDiscord", "Interaction", "Message", "User"]
