"""leasewise's app: everything a person talks to, over ``core`` (the numbers) and ``storage``.

- ``commands``: ``/lease <word> ...``, one module per command family, dispatched by table.
- ``conversation``: reading a message, answering it, keeping a thread's question.
- ``digests``: the weekly digest (compose, run exactly once, schedule) and the change feed.
- ``engine``: the calibrated engine, cached on disk and kept current with admin additions.
- ``render``: templates, number formats, Block Kit limits and charts: every sentence shown.
- ``slack``: the Bolt app, its listeners, delivery to Slack and the HTTP server.
- ``console``: ``leasewise chat``, a local stand-in for a Slack channel.
- ``cli``: the ``leasewise`` command line.
- ``settings`` and ``services``: configuration and dependencies, built once at the edge.
"""
