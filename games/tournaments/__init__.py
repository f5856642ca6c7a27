"""Tournaments: round robins and Swiss events over days, run by the task runner."""
