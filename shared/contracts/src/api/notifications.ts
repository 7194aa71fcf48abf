// Routes of the notifications (issue 11): being built.
export {};
