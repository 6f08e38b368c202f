import { describeSentinel } from './sentinel-profile.ts';

// The current primary is SIGKILLed mid-run; the sentinels promote the replica, and the old
// primary, started again, rejoins as a replica.
describeSentinel('redis-sentinel', 'primary SIGKILLed, sentinel failover');
