local img(tag) = assert tag != '' : 'image tag must not be empty'; 'registry.local/api:' + tag;
{ image: img('') }
