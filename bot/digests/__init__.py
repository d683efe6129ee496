"""Weekly digests: what a channel hears about serving changes, and when, exactly once.

``compose`` re-prices a workspace's saved quotes across a period and renders the
message; ``runs`` claims a period, posts and records it; ``schedule`` fires each
subscription at its local hour and catches up after restarts; ``feed`` brings new
serving stacks and measurements into the catalog (admin form, ``leasewise import``).
"""
