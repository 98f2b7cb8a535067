console.log('worker: connecting to queue');
setTimeout(() => { throw new Error('ECONNREFUSED 127.0.0.1:5672 (amqp)'); }, 100);
