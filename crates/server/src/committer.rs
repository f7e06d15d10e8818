//! Group commit: moves of many games waiting to be stored go into one transaction, so that
//! one fsync acknowledges many moves. A move is acknowledged only when its transaction has
//! committed.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{mpsc, oneshot, Mutex};
use tokio::task::JoinSet;

use crate::store::{Commit, Store, StoreError};

/// The most moves stored in one transaction.
const MAX_BATCH: usize = 1024;
/// How long a writer waits for moves before it runs the store's housekeeping anyway.
const IDLE: Duration = Duration::from_secs(1);

type Pending = (Commit, oneshot::Sender<Result<(), StoreError>>);

/// Hands moves to the writer tasks and waits for their transaction.
#[derive(Clone)]
pub struct Committer {
    queue: mpsc::Sender<Pending>,
}

impl Committer {
    /// Starts `writers` writer tasks on `store` (1 for SQLite, which has one writer anyway;
    /// more for PostgreSQL). They end once every `Committer` clone is dropped and the
    /// queue is empty.
    pub fn start(store: Arc<dyn Store>, writers: usize) -> (Self, JoinSet<()>) {
        let (queue, receiver) = mpsc::channel::<Pending>(MAX_BATCH * 4);
        let receiver = Arc::new(Mutex::new(receiver));
        let mut tasks = JoinSet::new();
        for _ in 0..writers.max(1) {
            let receiver = receiver.clone();
            let store = store.clone();
            tasks.spawn(async move {
                let mut batch: Vec<Pending> = Vec::with_capacity(MAX_BATCH);
                loop {
                    let received = {
                        let mut receiver = receiver.lock().await;
                        tokio::time::timeout(IDLE, receiver.recv_many(&mut batch, MAX_BATCH)).await
                    };
                    match received {
                        Ok(0) => return,
                        Ok(_) => {}
                        // No move for a while: the housekeeping is due all the same, since
                        // new games and seat changes write too (SQLite's log would
                        // otherwise grow without bound on a server where games are created
                        // and nobody moves).
                        Err(_) => {
                            store.between_batches().await;
                            continue;
                        }
                    }
                    let (commits, replies): (Vec<Commit>, Vec<_>) = batch.drain(..).unzip();
                    let results = store.append_moves(&commits).await;
                    metrics::histogram!("tabletop_commit_batch_size").record(commits.len() as f64);
                    for (i, reply) in replies.into_iter().enumerate() {
                        let result = match &results {
                            Ok(each) => each.get(i).cloned().unwrap_or(Err(StoreError::Database(
                                "the store returned too few results".into(),
                            ))),
                            Err(e) => Err(e.clone()),
                        };
                        // The mover may have gone; the move is stored all the same.
                        let _ = reply.send(result);
                    }
                    store.between_batches().await;
                }
            });
        }
        (Committer { queue }, tasks)
    }

    /// Queues one move for the writer; the returned future resolves once its transaction
    /// has committed (or failed).
    pub async fn queue(
        &self,
        commit: Commit,
    ) -> Result<impl std::future::Future<Output = Result<(), StoreError>>, StoreError> {
        let (reply, answer) = oneshot::channel();
        self.queue
            .send((commit, reply))
            .await
            .map_err(|_| StoreError::Database("the server is shutting down".into()))?;
        Ok(async move {
            answer
                .await
                .map_err(|_| StoreError::Database("the writer stopped".into()))?
        })
    }
}
