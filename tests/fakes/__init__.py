"""Local stand-ins for the services leasewise talks to, for end-to-end tests."""
