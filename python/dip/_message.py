"""``dip.Message``: a press message, as MILA's ``diplomacy.Message``
(sender, recipient, phase, time sent, text). ``Game.add_message`` takes
these, MILA's own, or any object with the same attributes."""

SYSTEM = 'SYSTEM'  # a sender
GLOBAL = 'GLOBAL'  # a recipient: every power
OBSERVER = 'OBSERVER'
OMNISCIENT = 'OMNISCIENT'


class Message:
    """A message from ``sender`` (a power, or SYSTEM) to ``recipient`` (a
    power, or GLOBAL, OBSERVER, OMNISCIENT) in ``phase``; ``time_sent``
    (microseconds) is its key in ``game.messages``."""

    __slots__ = ['sender', 'recipient', 'time_sent', 'phase', 'message']

    def __init__(self, sender=None, recipient=None, time_sent=None, phase=None, message=None, **_):
        self.sender = sender
        self.recipient = recipient
        self.time_sent = time_sent
        self.phase = phase
        self.message = message

    def __str__(self):
        return '[%d/%s/%s->%s](%s)' % (self.time_sent or 0, self.phase, self.sender, self.recipient, self.message)

    __repr__ = __str__

    def _key(self):
        return (self.time_sent or 0, self.sender, self.recipient, self.phase, self.message)

    def __hash__(self):
        return hash(self.time_sent)

    def __eq__(self, other):
        return isinstance(other, Message) and self._key() == other._key()

    def __lt__(self, other):
        return (self.time_sent or 0) < (other.time_sent or 0)

    def is_global(self):
        return self.recipient == GLOBAL

    def for_observer(self):
        return self.recipient == OBSERVER

    def to_dict(self):
        return {'sender': self.sender, 'recipient': self.recipient, 'time_sent': self.time_sent,
                'phase': self.phase, 'message': self.message}

    @classmethod
    def from_dict(cls, dct):
        return cls(**{k: dct.get(k) for k in cls.__slots__})


def message_dict(message):
    """A message (dip's, MILA's, or a dict) as a saved game's dict."""
    if isinstance(message, dict):
        return message
    if hasattr(message, 'to_dict'):
        return message.to_dict()
    return {k: getattr(message, k, None) for k in Message.__slots__}
