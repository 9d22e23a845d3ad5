"""One class per user intention; each receives only the ports it uses."""
