// Integration and system tiers talk to real servers and start real processes.
jest.setTimeout(120_000);
