// Routes of the dashboard (issue 11): being built.
export {};
