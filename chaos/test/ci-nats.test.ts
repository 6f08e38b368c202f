import { describeCiProfile } from './ci-profile.ts';

describeCiProfile('nats', 'private nats server', ', through a worker host cut off twice');
