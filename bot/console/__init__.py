"""``leasewise chat``: a terminal that behaves like a Slack channel, for trying answers offline."""
