import { describeCiProfile } from './ci-profile.ts';

describeCiProfile('redis', 'private redis server', '');
