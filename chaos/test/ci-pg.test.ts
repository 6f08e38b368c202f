import { describeCiProfile } from './ci-profile.ts';

describeCiProfile('pg', 'private pg server', ', through a worker host cut off twice');
