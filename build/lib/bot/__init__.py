"""The bot process: settings, storage, the session service, the scheduler and the entry point."""
