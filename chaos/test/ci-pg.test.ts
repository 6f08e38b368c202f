import { describeCiProfile } from './ci-profile.ts';

describeCiProfile('pg', 'private pg server', '');
