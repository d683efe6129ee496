"""The calibrated engine the app answers with.

``cache`` keeps the packaged calibration on disk between runs, keyed by the data
and code it came from; ``source`` layers the database's admin additions and price
lines over it, so every replica answers with the catalog as it stands. An addition
is calibrated off the request path: ``rebuild`` is the one background worker, and
``isolated`` runs each calibration in a child process.
"""
