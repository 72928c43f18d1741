import { useEffect, useState } from 'react';

/** Seconds until another code may be asked for (the server allows one a minute per address). */
export function useResendCountdown(): { secondsLeft: number; start: (seconds: number) => void } {
  const [until, setUntil] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until <= now) return;
    const timer = setTimeout(() => setNow(Date.now()), 1000);
    return () => clearTimeout(timer);
  }, [until, now]);
  return {
    secondsLeft: Math.max(0, Math.ceil((until - now) / 1000)),
    start: (seconds) => {
      setNow(Date.now());
      setUntil(Date.now() + seconds * 1000);
    },
  };
}
