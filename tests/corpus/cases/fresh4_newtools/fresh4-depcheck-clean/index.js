require('lodash');
