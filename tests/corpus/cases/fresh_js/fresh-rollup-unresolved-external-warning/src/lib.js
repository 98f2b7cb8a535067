import { debounce } from 'lodash-es';
export const onResize = debounce(() => 1, 100);
