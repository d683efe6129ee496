"""leasewise's edges: the command line now, the Slack app later. Thin layers over ``core``."""
