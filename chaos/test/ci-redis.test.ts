import { describeCiProfile } from './ci-profile.ts';

describeCiProfile('redis', 'private redis server', ', through a worker host cut off twice');
