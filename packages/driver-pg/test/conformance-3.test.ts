import { describePgKit } from './kit.js';

// Share 3 of the kit; the three conformance files run it whole between them.
describePgKit(2);
