console.log('report written to coverage/index.html');
