// The two mocha globals web-test-runner provides, declared here so the type check covers the
// component tests without another dependency.
declare function describe(name: string, fn: () => void): void;
declare function it(name: string, fn: () => void | Promise<void>): void;
