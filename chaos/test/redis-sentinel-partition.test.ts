import { describeSentinel } from './sentinel-profile.ts';

// The primary, one worker and one producer are cut off for 5 s: the sentinels promote the
// replica, and on the heal the old primary becomes a replica, discarding what it took meanwhile.
// With durability it acknowledged none of that.
describeSentinel('redis-sentinel-partition', 'primary cut off 5 s with a worker and a producer');
