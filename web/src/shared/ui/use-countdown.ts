import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * A seconds countdown: `start(n)` begins it, `remaining` falls to 0 and
 * `onDone` runs once at the end.
 */
export function useCountdown(onDone?: () => void): { remaining: number; start: (seconds: number) => void } {
  const [remaining, setRemaining] = useState(0);
  const done = useRef(onDone);
  done.current = onDone;
  useEffect(() => {
    if (remaining <= 0) return;
    const id = setTimeout(() => {
      setRemaining(remaining - 1);
      if (remaining === 1) done.current?.();
    }, 1000);
    return () => clearTimeout(id);
  }, [remaining]);
  const start = useCallback((seconds: number) => setRemaining(seconds), []);
  return { remaining, start };
}
