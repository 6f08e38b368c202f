import { describeCiProfile } from './ci-profile.ts';

describeCiProfile('nats', 'private nats server', '');
