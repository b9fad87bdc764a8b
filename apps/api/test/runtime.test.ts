import { describe, expect, it } from 'vitest';

describe('the Node.js runtime', () => {
  it('is the one CI asked for (EXPECT_NODE_MAJOR), and at least 20.19', () => {
    const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
    console.log(`tests running on Node.js ${process.version}`);
    expect(major > 20 || (major === 20 && minor >= 19)).toBe(true);
    const expected = process.env.EXPECT_NODE_MAJOR;
    if (expected) expect(major).toBe(Number(expected));
  });
});
