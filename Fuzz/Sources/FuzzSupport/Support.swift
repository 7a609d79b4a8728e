public enum Support {}
