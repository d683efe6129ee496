"""``/lease``: the commands the sales team types, one module per family.

``dispatch`` reads the first word and hands the rest to the family that
registered it (``answers``: ask, size, cost, compare; ``catalog``: models, gpus,
stacks; ``quotes``; ``digests``; ``admin``). Every handler returns a
``bot.conversation.Reply`` for the caller to render: Slack, the local console
and the tests all go through the same table.
"""
