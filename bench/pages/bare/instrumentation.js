/**
 * Nothing to set up. This file and proxy.js only stand in front of the repository's own instrumentation.ts and
 * proxy.ts: Turbopack (16.4.6), when it finds none in the project, takes them from its root (the repository, where
 * the shared node_modules are), and the app's would then refuse to start without the app's configuration.
 */
export function register() {}
