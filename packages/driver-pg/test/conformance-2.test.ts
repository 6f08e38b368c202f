import { describePgKit } from './kit.js';

// Share 2 of the kit; the three conformance files run it whole between them.
describePgKit(1);
