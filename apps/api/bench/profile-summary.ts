/**
 * The top frames of a V8 CPU profile by self time (what the thread was doing, not who called
 * it), as markdown lines: share of the sampled time that was not idle, the function and where
 * it is. Frames of one function at one place are summed.
 */
interface ProfileNode {
  id: number;
  hitCount?: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

export interface CpuProfile {
  nodes: ProfileNode[];
}

export function topFrames(profile: CpuProfile, count: number): string[] {
  const byFrame = new Map<string, number>();
  let busy = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    if (hits === 0 || node.callFrame.functionName === '(idle)') continue;
    busy += hits;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url ? `${url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/apps\//, 'apps/')}:${lineNumber + 1}` : '';
    const key = `${functionName || '(anonymous)'}${where ? ` ${where}` : ''}`;
    byFrame.set(key, (byFrame.get(key) ?? 0) + hits);
  }
  return [...byFrame]
    .sort(([, a], [, b]) => b - a)
    .slice(0, count)
    .map(([frame, hits]) => `${((100 * hits) / Math.max(1, busy)).toFixed(1)}% ${frame}`);
}
