"""leasewise as a Slack app.

``app`` builds the Bolt app from settings and services; ``listeners`` holds one
module per kind of thing Slack sends (commands, events, actions, views, App
Home); ``delivery`` gets a rendered reply back to Slack; ``server`` serves it all
over HTTP (or Socket Mode).
"""
