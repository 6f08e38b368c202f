import { describePgKit } from './kit.js';

// Share 1 of the kit; the three conformance files run it whole between them.
describePgKit(0);
